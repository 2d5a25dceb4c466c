// The JSON types of spec/rps-api.md (filled in by the server issue).
