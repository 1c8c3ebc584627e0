import Crypto
import FormaAPI
import FormaCore
import Fluent
import Foundation
import OpenAPIRuntime

extension FormaAPIHandler {
    /// Clients may keep the picture but must revalidate it with `If-None-Match` before each use; the answer is
    /// then usually an empty 304.
    static let avatarCacheControl = "private, no-cache"

    func getAvatar(_ input: Operations.GetAvatar.Input) async throws -> Operations.GetAvatar.Output {
        let me = try Caller.person()
        guard let avatar = try await AvatarModel.query(on: try database()).filter(\.$user.$id == me.userID).first()
        else {
            throw NotFoundError.avatar
        }
        if let condition = input.headers.ifNoneMatch, Self.entityTag(avatar.etag, matchesAnyOf: condition) {
            return .notModified(.init(headers: .init(eTag: avatar.etag, cacheControl: Self.avatarCacheControl)))
        }
        let body = HTTPBody(avatar.data)
        let headers = Operations.GetAvatar.Output.Ok.Headers(eTag: avatar.etag, cacheControl: Self.avatarCacheControl)
        switch avatar.contentType {
        case ImageProbe.Format.png.mediaType:
            return .ok(.init(headers: headers, body: .png(body)))
        default:
            return .ok(.init(headers: headers, body: .jpeg(body)))
        }
    }

    func uploadAvatar(_ input: Operations.UploadAvatar.Input) async throws -> Operations.UploadAvatar.Output {
        let me = try Caller.person()
        let body: HTTPBody
        switch input.body {
        case .png(let bytes), .jpeg(let bytes), .binary(let bytes): body = bytes
        }
        // The body limit middleware has already capped the size; this bound only documents the invariant.
        let data = try await Data(collecting: body, upTo: configuration.maximumAvatarBytes)
        let probe: ImageProbe
        do {
            probe = try ImageProbe.inspect(data)
        } catch .unrecognised {
            throw InputError.unsupportedMediaType("the picture must be a PNG or JPEG image (judged by its bytes)")
        } catch {
            throw InputError.invalid(field: "body", error.description)
        }
        let limit = configuration.maximumAvatarPixels
        guard probe.width <= limit, probe.height <= limit else {
            throw InputError.invalid(
                field: "body", "the picture is \(probe.width)×\(probe.height) pixels; at most \(limit) a side")
        }
        let digest = SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
        let etag = "\"\(digest)\""
        let userID = me.userID
        try await database().transaction { transaction in
            let avatar = try await AvatarModel.query(on: transaction).filter(\.$user.$id == userID).first()
                ?? AvatarModel()
            avatar.$user.id = userID
            avatar.contentType = probe.format.mediaType
            avatar.data = data
            avatar.etag = etag
            avatar.byteCount = data.count
            avatar.width = probe.width
            avatar.height = probe.height
            try await avatar.save(on: transaction)
        }
        return .ok(.init(body: .json(.init(
            contentType: probe.format == .png ? .imagePng : .imageJpeg, byteCount: data.count, width: probe.width,
            height: probe.height, etag: etag))))
    }

    func deleteAvatar(_ input: Operations.DeleteAvatar.Input) async throws -> Operations.DeleteAvatar.Output {
        let me = try Caller.person()
        try await AvatarModel.query(on: try database()).filter(\.$user.$id == me.userID).delete()
        return .noContent(.init())
    }

    /// Whether an `If-None-Match` value (a list of tags, possibly weak, or `*`) matches the current tag, using the
    /// weak comparison RFC 9110 §13.1.2 prescribes for this header.
    static func entityTag(_ current: String, matchesAnyOf condition: String) -> Bool {
        let opaque = { (tag: Substring) -> Substring in
            let trimmed = tag.drop(while: \.isWhitespace)
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
        }
        let currentOpaque = opaque(Substring(current))
        return condition.split(separator: ",").contains { candidate in
            let value = candidate.trimmingCharacters(in: .whitespaces)
            return value == "*" || opaque(Substring(value)) == currentOpaque
        }
    }
}
