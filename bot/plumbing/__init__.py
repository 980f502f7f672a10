"""What every layer above the engine leans on and no rule knows of: the settings, the change stream and its relay
between processes, keyed locks, the pace of Discord's global limit, and times as people type them."""
