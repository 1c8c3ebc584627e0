import FormaAPI
import SQLKit

/// The version reported by `GET /v1/health` and `forma --version`.
public let formaVersion = "0.1.0"

extension FormaAPIHandler {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        do {
            try await database().sql().raw("SELECT 1").run()
        } catch {
            logger.warning("health check failed", metadata: ["error": .string(String(describing: error))])
            throw ServiceError.databaseNotAnswering
        }
        return .ok(.init(body: .json(.init(
            status: .ok, database: configuration.database.kind == "postgres" ? .postgres : .sqlite,
            version: formaVersion))))
    }
}
