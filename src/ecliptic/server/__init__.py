"""The game server: HTTP/WebSocket app, storage, and the notifiers between server processes."""
