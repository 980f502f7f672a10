"""The JSON the pages that act (the Activity, the organiser's desk) send and get back: a body read as an object,
and a refusal as one line under "error"."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def error(status: type[web.HTTPException], message: str) -> web.HTTPException:
    return status(text=json.dumps({"error": message}), content_type="application/json")


async def json_body(request: web.Request, unreadable: str) -> dict[str, Any]:
    """The request's JSON object; refused with `unreadable` when it is not one."""
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise error(web.HTTPBadRequest, unreadable)
    return body
