"""Persistence: tables, the snapshot codec, the version-checked repository and the migrations."""
