//! The authorization server for MCP clients.
