import Foundation
import NIOCore
import NIOHTTP1

/// Answers a request that NIO's HTTP parser refuses before any route sees it, with a problem body, then
/// closes the connection. Without it Hummingbird answers every such request with an empty 400: a head larger
/// than the decoder's limits (80 KiB of fields) is a 431 `header-too-large`, anything else a 400 `bad-request`
/// that says what the parser found.
final class ParserErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    /// The parser reports again for every read after its first error: one answer is enough.
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !answered else { return }
        answered = true
        let problem = Self.problem(for: parserError)
        // Written below the HTTP encoder, as bytes: no response head of the request's has gone out.
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self),
              let body = try? problem.body() else { return context.fireErrorCaught(error) }
        var buffer = context.channel.allocator.buffer(capacity: 160 + body.count)
        buffer.writeString(
            "HTTP/1.1 \(problem.status.code) \(problem.status.reasonPhrase)\r\n"
                + "Content-Type: application/problem+json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        )
        buffer.writeBytes(body)
        // Only the output is closed: what the client still sends is read and dropped, so that its kernel does not
        // answer with a reset that may take the response with it. The decoder's error then ends the connection: a
        // client that goes on sending finds it closed within a second (`ServiceTests`).
        let channel = context.channel
        encoder.writeAndFlush(NIOAny(IOData.byteBuffer(buffer))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
    }

    static func problem(for error: HTTPParserError) -> Problem {
        switch error {
        case .headerOverflow:
            return Problem(.init(code: 431, reasonPhrase: "Request Header Fields Too Large"), code: "header-too-large",
                           "the request's header fields are larger than the server reads (80 KiB)")
        default:
            return Problem(.badRequest, code: "bad-request", "the request is not well-formed HTTP/1.1 (\(error))")
        }
    }
}
