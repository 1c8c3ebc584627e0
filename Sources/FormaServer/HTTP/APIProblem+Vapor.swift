import Vapor

extension APIProblem {
    /// The problem as a Vapor response: for the middleware that answers outside the OpenAPI handlers, which send
    /// problems through ``APIProblem``'s `HTTPResponseConvertible` conformance instead.
    var vaporResponse: Response {
        var fields = HTTPHeaders()
        fields.replaceOrAdd(name: .contentType, value: Self.mediaType)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.replaceOrAdd(name: name, value: value) }
        return Response(status: HTTPResponseStatus(statusCode: status), headers: fields, body: .init(data: body))
    }
}
