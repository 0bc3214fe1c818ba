"""The web layer: Starlette app, JSON API, WebSocket endpoints, pages."""
