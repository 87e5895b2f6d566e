"""A game's strength ladder and how much of its outcome is luck (`balance ladder`)."""
