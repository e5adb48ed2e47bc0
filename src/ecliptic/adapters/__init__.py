"""The research adapters: the engine behind PettingZoo's AEC API, Gymnasium's single-agent API
and OpenSpiel's Python game API (docs/adapters.md). They need the ``rl`` extra
(``pip install -e '.[rl]'``); the engine itself does not."""
