"""Live rooms over HTTP and WebSocket: the socket, the rooms' JSON API, who is connected."""
