// FormaKit: the Swift SDK for host apps. The client generated from `openapi.yaml` (internal to this module) is
// wrapped by a small hand-written public API, so generated names never reach an app.
import FormaAPI
import OpenAPIURLSession
