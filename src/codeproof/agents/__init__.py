"""One agent role per module; prompts live next to their agent."""
