"""The demo's defaults, with no imports: the command line's --help reads them and must stay instant."""

API_KEY_ENV = "SWITCHBOARD_DEMO_KEY"
TOKEN_ENV = "SWITCHBOARD_DEMO_TOKEN"
DEFAULT_API_KEY = "demo-key"
DEFAULT_TOKEN = "demo-token"
DEFAULT_WRITER_PACE_MS = 40
DEFAULT_HOST = "127.0.0.1"
DEFAULT_FIRST_PORT = 47101  # then 47102, ... in the fleet's agent order
