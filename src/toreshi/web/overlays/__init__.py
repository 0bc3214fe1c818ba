"""Broadcast overlays for OBS and vMix."""
