"""One module per `switchboard COMMAND` (parser.COMMANDS names them): `add_arguments(parser)` adds its flags,
each of its (sub)commands has a frozen dataclass of typed options, and `main(namespace) -> int` builds those
options (cli.options.options_from) and runs the handler they are for. Each module imports only argparse at
the top, so a command's --help stays light; its handler's module is imported when it runs."""
