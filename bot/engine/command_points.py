"""The CP amounts and reasons a player gives when spending or gaining Command points, checked alike in every pack."""

from __future__ import annotations

from bot.engine.errors import InvalidValue

MAX_CP_CHANGE = 10
MAX_REASON = 200


def cp_amount(amount: int) -> int:
    if not 1 <= amount <= MAX_CP_CHANGE:
        raise InvalidValue(f"CP amounts go from 1 to {MAX_CP_CHANGE}.")
    return amount


def cp_reason(reason: str) -> str:
    if len(reason) > MAX_REASON:
        raise InvalidValue(f"Keep the reason under {MAX_REASON} characters.")
    return reason.strip()
