"""The subcommands of the ``thirteen`` command line, one module each, with the shared
options (:mod:`.options`) and terminal output (:mod:`.render`). :mod:`thirteen.cli` puts
them together."""
