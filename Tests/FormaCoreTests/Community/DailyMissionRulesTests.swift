import FormaCore
import Testing

@Suite("Daily mission rules")
struct DailyMissionRulesTests {
    @Test func theDefaultsAreThreeValidMissionsOfTargetOne() throws {
        // act
        let drafts = DailyMissionRules.defaults.map {
            DailyMissionRules.Draft(id: $0.id, title: $0.title, activity: $0.activity.rawValue, target: $0.target)
        }

        // verify
        #expect(try DailyMissionRules.validate(drafts).get() == DailyMissionRules.defaults)
        #expect(DailyMissionRules.defaults.map(\.activity) == [.workoutCompleted, .cheerOrGift, .liveSet])
    }

    @Test func aMissionIsMetWhenTheCountOfItsActivityReachesTheTarget() {
        // setup
        let two = DailyMission(id: "two", title: "Two workouts", activity: .workoutCompleted, target: 2)
        let kind = DailyMission(id: "kind", title: "Be kind", activity: .cheerOrGift, target: 2)
        let counts: [MissionActivity: Int] = [
            .workoutCompleted: DailyMissionRules.count(.workoutCompleted, cheers: 1, gifts: 1, workouts: 1, liveSets: 4),
            .cheerOrGift: DailyMissionRules.count(.cheerOrGift, cheers: 1, gifts: 1, workouts: 1, liveSets: 4),
        ]

        // act
        let met = DailyMissionRules.met([two, kind], counts: counts)

        // verify: one workout is not two; a cheer and a gift are two of "cheer or gift"
        #expect(met == [kind])
    }

    @Test func everyBrokenFieldIsNamedByItsIndex() throws {
        // act
        let result = DailyMissionRules.validate([
            .init(id: "ok-1", title: " Fine ", activity: "gift", target: 100),
            .init(id: "ok-1", title: "Copy", activity: "gift", target: 1),
            .init(id: "", title: "\u{7}", activity: "walk", target: 0),
        ])

        // verify
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(result)")
            return
        }
        #expect(error.issues.map(\.field) == [
            "missions[1].id", "missions[2].id", "missions[2].title", "missions[2].activity", "missions[2].target",
        ])
        #expect(try DailyMissionRules.validate([.init(id: "a", title: " A ", activity: "live_set", target: 1)]).get()
            == [DailyMission(id: "a", title: "A", activity: .liveSet, target: 1)])
        #expect((try? DailyMissionRules.validate(Array(repeating: .init(id: "a", title: "A", activity: "gift", target: 1), count: 11)).get()) == nil)
    }
}
