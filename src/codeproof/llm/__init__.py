"""Model providers behind the ChatModel protocol."""
