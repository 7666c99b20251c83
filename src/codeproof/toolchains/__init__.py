"""Language toolchains served over MCP, and the router that picks one."""
