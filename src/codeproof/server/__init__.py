"""``codeproof serve``: the LangGraph Platform HTTP API subset, the web page and the MCP
server, all on the same workflow, run store and checkpointer as the CLI."""
