import HTTPTypes
import Testing

@testable import FormaServer

/// The kept encoded answers (``EncodedResponseStore``) stay within their bounds, and the plan list's key names the
/// answer the generated code gives, however the request spells it.
@Suite("Response stores")
struct ResponseStoreTests {
    static func answer(bytes count: Int, fill: UInt8 = 0x20) -> EncodedResponse {
        EncodedResponse(response: HTTPResponse(status: .ok), body: ArraySlice(repeating: fill, count: count))
    }

    @Test func store_keepsAtMostItsEntries_andCountsTheBytesOfAReplacementOnce() {
        // setup
        let store = EncodedResponseStore<String>(maximumEntries: 3, maximumBytes: 1_000)

        // act: four answers into three places, then one replaced by a longer one
        for key in ["a", "b", "c", "d"] { store.insert(Self.answer(bytes: 100), for: key) }
        let afterFour = (count: store.count, bytes: store.bytes)
        let kept = ["a", "b", "c", "d"].first { store[$0] != nil }!
        store.insert(Self.answer(bytes: 250, fill: 0x41), for: kept)

        // verify
        #expect(afterFour.count == 3 && afterFour.bytes == 300)
        #expect(store.count == 3 && store.bytes == 450)
        #expect(store[kept]?.body == ArraySlice(repeating: 0x41, count: 250))
    }

    @Test func store_dropsEntriesToStayWithinItsBytes_andKeepsNoAnswerLargerThanThem() {
        // setup
        let store = EncodedResponseStore<String>(maximumEntries: 100, maximumBytes: 1_000)
        for key in ["a", "b", "c"] { store.insert(Self.answer(bytes: 300), for: key) }

        // act
        store.insert(Self.answer(bytes: 400), for: "big")
        let afterBig = (count: store.count, bytes: store.bytes)
        store.insert(Self.answer(bytes: 1_001), for: "huge")

        // verify: room made for the 400 bytes by dropping one 300; the answer over the whole bound not kept
        #expect(afterBig.count == 3 && afterBig.bytes == 1_000)
        #expect(store["big"] != nil && store["huge"] == nil)
        #expect(store.count == 3 && store.bytes == 1_000)
    }

    @Test func planListKey_isTheCategoryAsTheRuntimeReadsIt_andTheEnrolledSet() throws {
        let enrolled: Set<String> = ["strength-bodyweight", "cardio-base"]
        let key = try #require(PlanListResponseCache.key(path: "/v1/plans?category=Strength", enrolled: enrolled))

        // the same answer: other query items, an encoded spelling, the enrolled set in any order
        #expect(PlanListResponseCache.key(path: "/v1/plans?category=Strength&junk=1", enrolled: enrolled) == key)
        #expect(PlanListResponseCache.key(path: "/v1/plans?pretty=true&category=Str%65ngth", enrolled: enrolled) == key)
        #expect(key.enrolled == ["cardio-base", "strength-bodyweight"])
        #expect(key.category == "Strength")

        // another answer: no category, another category, another enrolled set
        #expect(PlanListResponseCache.key(path: "/v1/plans", enrolled: enrolled)?.category == nil)
        #expect(PlanListResponseCache.key(path: "/v1/plans?category=Cardio", enrolled: enrolled) != key)
        #expect(PlanListResponseCache.key(path: "/v1/plans?category=Strength", enrolled: []) != key)

        // not kept: the category twice, an item that does not decode
        #expect(PlanListResponseCache.key(path: "/v1/plans?category=Strength&category=Cardio", enrolled: []) == nil)
        #expect(PlanListResponseCache.key(path: "/v1/plans?category=%zz", enrolled: []) == nil)
    }
}
