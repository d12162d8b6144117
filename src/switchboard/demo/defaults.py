"""The demo's defaults, importing nothing heavy: the command line's --help reads them and must stay instant."""

# The credentials live below every client (they read them too); here for the demo's own modules.
from ..demo_credentials import API_KEY_ENV as API_KEY_ENV
from ..demo_credentials import DEFAULT_API_KEY as DEFAULT_API_KEY
from ..demo_credentials import DEFAULT_TOKEN as DEFAULT_TOKEN
from ..demo_credentials import TOKEN_ENV as TOKEN_ENV

DEFAULT_WRITER_PACE_MS = 40
DEFAULT_HOST = "127.0.0.1"
DEFAULT_FIRST_PORT = 47101  # then 47102, ... in the fleet's agent order
