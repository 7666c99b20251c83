"""The LangGraph workflow, its state, interrupts and run store."""
