"""A game's skill ladder and how much of its outcome is luck (`balance ladder`)."""
