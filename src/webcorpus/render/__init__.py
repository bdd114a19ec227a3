"""Rendering pages in a browser (screenshots)."""
