import FormaAPI
import FormaCore
import Foundation

extension FormaAPIHandler {
    func listPlans(_ input: Operations.ListPlans.Input) async throws -> Operations.ListPlans.Output {
        let me = try Caller.person()
        let library = engine.plans
        let plans = input.query.category
            .map { PlanCategory(rawValue: $0.rawValue).map(library.plans(in:)) ?? [] } ?? library.plans
        // Read once per request, by PlanListResponseCache when it runs in front of the handler.
        let enrolled = if let read = PlanListResponseCache.enrolled { read } else {
            try await planStore(for: me).enrolledPlanIDs()
        }
        return .ok(.init(body: .json(.init(items: plans.map {
            WorkoutMapping.planSummary($0, enrolled: enrolled.contains($0.id))
        }))))
    }

    func getPlan(_ input: Operations.GetPlan.Input) async throws -> Operations.GetPlan.Output {
        let me = try Caller.person()
        let plan = try self.plan(input.path.id)
        let enrolled = try await planStore(for: me).enrolment(in: plan.id) != nil
        return .ok(.init(body: .json(WorkoutMapping.plan(plan, enrolled: enrolled))))
    }

    func enrolInPlan(_ input: Operations.EnrolInPlan.Input) async throws -> Operations.EnrolInPlan.Output {
        let me = try Caller.person()
        let plan = try self.plan(input.path.id)
        let store = try planStore(for: me)
        let (enrolment, created) = try await store.enrol(in: plan)
        let (progress, unlocks) = try await store.progress(in: plan)
        let body = WorkoutMapping.progress(
            progress, unlocks: unlocks, plan: plan, enrolment: enrolment, load: try await planLoad(for: me, of: enrolment))
        return created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func getPlanProgress(_ input: Operations.GetPlanProgress.Input) async throws -> Operations.GetPlanProgress.Output {
        let me = try Caller.person()
        let plan = try self.plan(input.path.id)
        let store = try planStore(for: me)
        guard let enrolment = try await store.enrolment(in: plan.id) else {
            throw NotFoundError.planEnrolment(planID: plan.id)
        }
        let (progress, unlocks) = try await store.progress(in: plan)
        return .ok(.init(body: .json(
            WorkoutMapping.progress(
                progress, unlocks: unlocks, plan: plan, enrolment: enrolment,
                load: try await planLoad(for: me, of: enrolment)))))
    }

    func createPlanWorkout(_ input: Operations.CreatePlanWorkout.Input) async throws
        -> Operations.CreatePlanWorkout.Output
    {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let plan = try self.plan(input.path.id)
        let (session, enrolment) = try await planStore(for: me).requireOpen(body.sessionId, of: plan)
        // A person in pain gets the session regenerated from its own request and seed around that pain
        // (docs/rehab.md, "Plans"); without pain, the session's workout as everyone gets it.
        let pain = try await painLog(for: me).currentState()
        var adjusted: PainAwareWorkout?
        if !PainRules.restrictions(for: pain).isEmpty {
            var unused = SplitMix64(seed: 0)  // the session's request carries its seed
            adjusted = try engine.generator.generate(request: session.workout.request, pain: pain, using: &unused)
        }
        // The enrolment's load factor, stepped by the pain around earlier sessions (docs/rehab.md, "Progression in
        // plans"), scales the session's dose; 1 leaves it as it is.
        let workout = (adjusted?.workout ?? session.workout).scalingDoses(by: enrolment.loadFactor)
        let store = try workoutStore(for: me)
        let adjustment = adjusted.flatMap(RehabMapping.adjustment)
        let model = try await store.create(
            workout, name: WorkoutNaming.name(ofSession: session, in: plan),
            category: plan.category.workoutCategory, planSession: (plan.id, session.id),
            pain: try RehabMapping.encoded(adjustment))
        return .created(.init(body: .json(
            try WorkoutMapping.workout(model, activeRun: nil, now: store.now, pain: adjustment))))
    }

    /// The plan `id`: ``NotFoundError/plan(_:)`` for an id no plan has, 422 when its avoided regions leave a session
    /// impossible.
    func plan(_ id: String) throws -> TrainingPlan {
        do {
            return try engine.plans.plan(id: id)
        } catch .unknownPlan {
            throw NotFoundError.plan(id)
        } catch {
            throw InputError.invalid(field: "id", error.description)
        }
    }
}
