"""Persistence: tables, the snapshot codec, the version-checked repository and the migrations."""

from __future__ import annotations

from importlib import import_module

from sqlalchemy import MetaData
from sqlmodel import SQLModel

# Every module that declares tables: the migrations must build exactly these (tests/store/test_migrations.py).
TABLE_MODULES = ("bot.store.models", "bot.store.tournament_models", "bot.store.community_models",
                 "bot.store.army_models", "bot.store.share_models", "bot.store.judge_models", "bot.store.desk_models")


def metadata() -> MetaData:
    for name in TABLE_MODULES:
        import_module(name)
    return SQLModel.metadata
