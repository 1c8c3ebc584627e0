import Foundation
import Testing

@testable import FormaCLI

/// `forma bench http` reads wrk's text output; these are wrk 4.1's own words (Debian's `wrk`).
@Suite("forma bench http: reading wrk")
struct BenchHTTPOutputTests {
    static let output = """
        Running 10s test @ http://127.0.0.1:18080/v1/exercises?q=curl
          2 threads and 32 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency     4.97ms    9.21ms 101.23ms   92.48%
            Req/Sec     3.21k   412.55     4.10k    71.00%
          Latency Distribution
             50%  812.00us
             75%    3.25ms
             90%   12.61ms
             99%    1.02s
          63904 requests in 10.01s, 1.23GB read
          Socket errors: connect 0, read 2, write 0, timeout 3
          Non-2xx or 3xx responses: 17
        Requests/sec:   6384.11
        Transfer/sec:    125.62MB
        """

    @Test func parse_readsThroughputPercentilesAndErrors() throws {
        // act
        let result = try WrkResult(parsing: Self.output)

        // verify: microseconds, milliseconds and seconds all become milliseconds
        #expect(result.requestsPerSecond == 6384.11)
        #expect(result.p50Milliseconds == 0.812)
        #expect(result.p99Milliseconds == 1020)
        #expect(result.non2xxResponses == 17)
        #expect(result.socketErrors == 5)
    }

    @Test func parse_withoutErrorLines_countsNone() throws {
        // setup
        let clean = Self.output.split(separator: "\n")
            .filter { !$0.contains("Socket errors") && !$0.contains("Non-2xx") }.joined(separator: "\n")

        // act
        let result = try WrkResult(parsing: clean)

        // verify
        #expect(result.non2xxResponses == 0)
        #expect(result.socketErrors == 0)
    }

    @Test func parse_withoutLatencyDistribution_isRefused() {
        // setup: wrk run without --latency prints no percentiles
        let plain = Self.output.split(separator: "\n").filter { !$0.contains("%  ") && !$0.contains("% ") }
            .joined(separator: "\n")

        // verify
        #expect(throws: BenchHTTPError.self) { try WrkResult(parsing: plain) }
        #expect(throws: BenchHTTPError.self) { try WrkResult(parsing: "connection refused") }
    }

    @Test func durations_inEveryUnitWrkPrints() {
        #expect(WrkResult.milliseconds("950.00us") == 0.95)
        #expect(WrkResult.milliseconds("5.90ms") == 5.9)
        #expect(WrkResult.milliseconds("2.00s") == 2000)
        #expect(WrkResult.milliseconds("1.50m") == 90_000)
        #expect(WrkResult.milliseconds("fast") == nil)
    }
}
