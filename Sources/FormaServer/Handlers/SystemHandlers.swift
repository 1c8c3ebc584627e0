import FormaAPI
import SQLKit
import Vapor

/// The version reported by `GET /v1/health` and `forma --version`.
public let formaVersion = "0.1.0"

extension FormaAPIHandler {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        let request = try RequestContext.require()
        let configuration = request.application.formaConfiguration
        do {
            guard let sql = request.db as? any SQLDatabase else { throw APIProblem.internalError }
            try await sql.raw("SELECT 1").run()
        } catch {
            request.logger.warning("health check failed", metadata: ["error": .string(String(describing: error))])
            throw APIProblem.serviceUnavailable("the database does not answer")
        }
        return .ok(.init(body: .json(.init(
            status: .ok, database: configuration.database.kind == "postgres" ? .postgres : .sqlite,
            version: formaVersion))))
    }
}
