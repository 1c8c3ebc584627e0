// The types of this module are generated at build time from `openapi.yaml` at the package root, the single
// contract of Forma's HTTP API. They are `package`-scoped: the server and FormaKit convert them to their own types
// at the edge, so no generated name reaches an SDK user.
