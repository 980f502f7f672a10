"""The rules, as pure functions over immutable state.

Nothing here imports discord, sqlmodel, sqlalchemy or asyncio (tests/engine/test_purity.py checks it),
so every rule can be tested as a plain function call.
"""
