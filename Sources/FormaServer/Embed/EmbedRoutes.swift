import Crypto
import FluentKit
import FormaCore
import Foundation
import Vapor

/// The embedded web experience (`/embed/…`): one HTML shell for every view, and the ES modules and style sheet it
/// loads, served from the package's `EmbedAssets` resources. docs/embed.md explains the pages, docs/embed-protocol.md
/// the messages they exchange with a host app.
enum EmbedRoutes {
    static func register(on app: Application, settings: EmbedSettings) throws {
        let assets = try EmbedAssets.load()
        app.get("embed", "assets", ":file") { request async throws -> Response in
            let name = request.parameters.get("file") ?? ""
            guard let asset = assets.files[name] else {
                throw Abort(.notFound, reason: "file: no embed asset '\(LiveClose.truncated(name, toBytes: 60))'")
            }
            if request.headers.first(name: .ifNoneMatch) == asset.etag {
                return Response(status: .notModified, headers: Self.assetHeaders(asset))
            }
            return Response(status: .ok, headers: Self.assetHeaders(asset), body: .init(data: asset.bytes))
        }
        app.get("embed", "logo", ":company") { request async throws -> Response in
            let name = request.parameters.get("company") ?? ""
            guard let logo = try await CompanyBrandingService.logo(companyName: name, on: request.db) else {
                throw Abort(.notFound, reason: "company: '\(LiveClose.truncated(name, toBytes: 60))' has no logo")
            }
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .contentType, value: logo.contentType)
            headers.replaceOrAdd(name: .eTag, value: logo.etag)
            headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
            headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
            if let condition = request.headers.first(name: .ifNoneMatch),
                FormaAPIHandler.entityTag(logo.etag, matchesAnyOf: condition)
            {
                return Response(status: .notModified, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: .init(data: logo.data))
        }
        let shell: @Sendable (Request) async throws -> Response = { request in
            try await page(for: request, settings: settings)
        }
        app.get("embed", use: shell)
        app.get("embed", "**", use: shell)
    }

    private static func assetHeaders(_ asset: EmbedAssets.File) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.contentType = asset.contentType
        headers.replaceOrAdd(name: .eTag, value: asset.etag)
        // Revalidated on each load, so a new server version is picked up at once; unchanged files answer 304.
        headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        return headers
    }

    /// The shell: the page's settings as one JSON data attribute, and a content security policy that lets only the
    /// company's allowed origins frame it and only the configured MediaPipe and replay hosts be fetched.
    static func page(for request: Request, settings: EmbedSettings) async throws -> Response {
        var company: CompanyModel?
        var problem: String?
        let companyName = request.query[String.self, at: "company"]?.trimmingCharacters(in: .whitespaces)
        if let companyName, !companyName.isEmpty {
            company = try await CompanyModel.query(on: request.db)
                .filter(\.$nameKey == CompanyName.key(companyName))
                .first()
            if company == nil { problem = "company: no company named '\(companyName)'" }
        }
        var replayOrigin: String?
        if let replay = request.query[String.self, at: "replay"] {
            switch Self.replayOrigin(of: replay, company: company, enabled: settings.replayEnabled) {
            case .success(let origin): replayOrigin = origin
            case .failure(let refusal): problem = problem ?? refusal.description
            }
        }
        var branding: PageSettings.Branding?
        if let company {
            let record = try await CompanyBrandingService(database: request.db).branding(companyID: company.requireID())
            branding = PageSettings.Branding(
                accentColor: record.accentColor,
                logo: record.logo.map { logo in
                    let version = logo.etag.trimmingCharacters(in: ["\""])
                    return "\(CompanyBrandingService.logoPath(companyName: company.name))?v=\(version)"
                })
        }
        let pageSettings = PageSettings(
            company: company?.name,
            allowedOrigins: company?.allowedOrigins ?? [],
            problem: problem,
            branding: branding,
            mediaPipe: .init(
                script: settings.mediaPipeScriptURL, wasm: settings.mediaPipeWasmURL,
                model: settings.mediaPipeModelURL))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(pageSettings), as: UTF8.self)
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Forma</title>
            <link rel="stylesheet" href="/embed/assets/forma.css">
            <script type="module" src="/embed/assets/app.js"></script>
            </head>
            <body data-forma="\(Self.escapeAttribute(json))">
            <main id="app" aria-live="polite"><p class="status">Loading…</p></main>
            </body>
            </html>

            """
        var headers = HTTPHeaders()
        headers.contentType = .html
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        headers.replaceOrAdd(name: "Permissions-Policy", value: "camera=(self)")
        headers.replaceOrAdd(
            name: "Content-Security-Policy",
            value: Self.contentSecurityPolicy(
                frameAncestors: Self.frameAncestors(company: company, unknown: company == nil && companyName != nil),
                settings: settings, replayOrigin: replayOrigin))
        return Response(status: .ok, headers: headers, body: .init(string: html))
    }

    /// The origin a `?replay=` recording may be fetched from: only where the deployment enables replay
    /// (`FORMA_EMBED_REPLAY`), only with a company named, and only from one of its allowed origins, so that nobody can
    /// point the page (and its connect-src) at a host of their choosing.
    /// A refusal names the field `replay`.
    static func replayOrigin(of url: String, company: CompanyModel?, enabled: Bool) -> Result<String, FieldIssue> {
        func refused(_ message: String) -> Result<String, FieldIssue> {
            .failure(FieldIssue(field: "replay", message: message))
        }
        guard enabled else { return refused("replaying a recording is not enabled on this server") }
        guard let origin = origin(of: url) else { return refused("'\(url)' is not an http or https URL") }
        guard let company else {
            return refused("name the company (?company=) whose allowed origins serve the recording")
        }
        guard company.allowedOrigins.contains(origin) else {
            return refused("\(origin) is not one of \(company.name)'s allowed origins")
        }
        return .success(origin)
    }

    /// Who may frame the page: the company's allowed origins when the URL names a company; nobody when it names
    /// none (native WebViews load it as the top document); anyone when it names an unknown company, so the page can
    /// at least show the error to the person looking at it (it has nothing to act on without a valid company).
    static func frameAncestors(company: CompanyModel?, unknown: Bool) -> String {
        if unknown { return "*" }
        guard let company else { return "'none'" }
        return (["'self'"] + company.allowedOrigins).joined(separator: " ")
    }

    static func contentSecurityPolicy(frameAncestors: String, settings: EmbedSettings, replayOrigin: String?) -> String {
        let mediaPipeOrigins = Set(
            [settings.mediaPipeScriptURL, settings.mediaPipeWasmURL, settings.mediaPipeModelURL].compactMap(origin(of:)))
            .sorted()
        let scripts = (["'self'", "'wasm-unsafe-eval'"] + mediaPipeOrigins).joined(separator: " ")
        let connect = (["'self'"] + mediaPipeOrigins + (replayOrigin.map { [$0] } ?? [])).joined(separator: " ")
        return [
            "default-src 'none'",
            "script-src \(scripts)",
            "style-src 'self'",
            "img-src 'self' data: blob:",
            "media-src 'self' blob: mediastream:",
            "connect-src \(connect)",
            "worker-src 'self' blob:",
            "frame-ancestors \(frameAncestors)",
            "base-uri 'none'",
            "form-action 'none'",
        ].joined(separator: "; ")
    }

    /// `scheme://host[:port]` of an http(s) URL, or nil.
    static func origin(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" || $0 == "[" || $0 == "]" })
        else { return nil }
        return "\(scheme)://\(host.lowercased())" + (components.port.map { ":\($0)" } ?? "")
    }

    static func escapeAttribute(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    /// What the page's script reads from `data-forma`.
    struct PageSettings: Encodable {
        struct MediaPipe: Encodable {
            var script: String
            var wasm: String
            var model: String
        }

        /// The company's accent colour and the address of its logo (docs/embed.md, "Style and branding").
        struct Branding: Encodable {
            var accentColor: String?
            var logo: String?
        }

        var company: String?
        var allowedOrigins: [String]
        var problem: String?
        var branding: Branding?
        var mediaPipe: MediaPipe
    }

}

/// Where the embed page loads MediaPipe's pose landmarker from (a deployment can host the files itself), and whether
/// it may replay recordings.
public struct EmbedSettings: Sendable, Equatable {
    public static let defaultMediaPipeScriptURL =
        "https://cdn.jsdelivr.net/npm/@mediapipe/tasks-vision@0.10.14/vision_bundle.mjs"
    public static let defaultMediaPipeWasmURL = "https://cdn.jsdelivr.net/npm/@mediapipe/tasks-vision@0.10.14/wasm"
    public static let defaultMediaPipeModelURL =
        "https://storage.googleapis.com/mediapipe-models/pose_landmarker/pose_landmarker_lite/float16/1/pose_landmarker_lite.task"

    public var mediaPipeScriptURL: String
    public var mediaPipeWasmURL: String
    public var mediaPipeModelURL: String
    /// Whether the page may replay a recorded pose file (`?replay=`) from one of the company's allowed origins
    /// instead of using the camera (`FORMA_EMBED_REPLAY`, off by default). Replayed sessions never score.
    public var replayEnabled: Bool

    public init(
        mediaPipeScriptURL: String = Self.defaultMediaPipeScriptURL,
        mediaPipeWasmURL: String = Self.defaultMediaPipeWasmURL,
        mediaPipeModelURL: String = Self.defaultMediaPipeModelURL,
        replayEnabled: Bool = false
    ) {
        self.mediaPipeScriptURL = mediaPipeScriptURL
        self.mediaPipeWasmURL = mediaPipeWasmURL
        self.mediaPipeModelURL = mediaPipeModelURL
        self.replayEnabled = replayEnabled
    }
}

/// The page's static files, read once at start-up from the package resources.
struct EmbedAssets: Sendable {
    struct File: Sendable {
        var bytes: Data
        var contentType: HTTPMediaType
        var etag: String
    }

    var files: [String: File]

    static func load() throws -> EmbedAssets {
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("EmbedAssets"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else {
            throw EmbedAssetsMissing()
        }
        var files: [String: File] = [:]
        for name in names {
            let type: HTTPMediaType
            switch (name as NSString).pathExtension {
            case "js": type = HTTPMediaType(type: "text", subType: "javascript", parameters: ["charset": "utf-8"])
            case "css": type = HTTPMediaType(type: "text", subType: "css", parameters: ["charset": "utf-8"])
            default: continue
            }
            let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
            let digest = SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined()
            files[name] = File(bytes: bytes, contentType: type, etag: "\"\(digest)\"")
        }
        return EmbedAssets(files: files)
    }
}

struct EmbedAssetsMissing: Error, CustomStringConvertible {
    var description: String { "the embed page's files (EmbedAssets) are missing from the FormaServer resources" }
}
