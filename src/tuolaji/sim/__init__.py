"""Duplicate tournaments between computer players (``tuolaji sim``)."""
