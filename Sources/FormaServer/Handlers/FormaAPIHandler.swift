import FormaAPI
import Vapor

/// Implements the operations of `openapi.yaml`. One extension per area (catalogue, identity, profile, company,
/// system) lives in the files beside this one.
///
/// Handlers reach the Vapor request (database, configuration, headers used for authentication) through
/// ``RequestContext`` and report failures by throwing ``APIProblem``.
struct FormaAPIHandler: APIProtocol {}
