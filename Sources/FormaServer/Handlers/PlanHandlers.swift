import FormaAPI
import FormaCore
import Foundation
import Vapor

extension FormaAPIHandler {
    func listPlans(_ input: Operations.ListPlans.Input) async throws -> Operations.ListPlans.Output {
        let (request, me) = try await Self.caller()
        let library = try WorkoutEngine.shared().plans
        let plans = input.query.category
            .map { PlanCategory(rawValue: $0.rawValue).map(library.plans(in:)) ?? [] } ?? library.plans
        let enrolled = try await Self.planStore(request, me).enrolledPlanIDs()
        return .ok(.init(body: .json(.init(items: plans.map {
            WorkoutMapping.planSummary($0, enrolled: enrolled.contains($0.id))
        }))))
    }

    func getPlan(_ input: Operations.GetPlan.Input) async throws -> Operations.GetPlan.Output {
        let (request, me) = try await Self.caller()
        let plan = try Self.plan(input.path.id)
        let enrolled = try await Self.planStore(request, me).enrolment(in: plan.id) != nil
        return .ok(.init(body: .json(WorkoutMapping.plan(plan, enrolled: enrolled))))
    }

    func enrolInPlan(_ input: Operations.EnrolInPlan.Input) async throws -> Operations.EnrolInPlan.Output {
        let (request, me) = try await Self.caller()
        let plan = try Self.plan(input.path.id)
        let store = try Self.planStore(request, me)
        let (enrolment, created) = try await store.enrol(in: plan)
        let (progress, unlocks) = try await store.progress(in: plan)
        let body = WorkoutMapping.progress(progress, unlocks: unlocks, plan: plan, enrolment: enrolment)
        return created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func getPlanProgress(_ input: Operations.GetPlanProgress.Input) async throws -> Operations.GetPlanProgress.Output {
        let (request, me) = try await Self.caller()
        let plan = try Self.plan(input.path.id)
        let store = try Self.planStore(request, me)
        guard let enrolment = try await store.enrolment(in: plan.id) else {
            throw APIProblem.notFound("you are not enrolled in plan '\(plan.id)'")
        }
        let (progress, unlocks) = try await store.progress(in: plan)
        return .ok(.init(body: .json(
            WorkoutMapping.progress(progress, unlocks: unlocks, plan: plan, enrolment: enrolment))))
    }

    func createPlanWorkout(_ input: Operations.CreatePlanWorkout.Input) async throws
        -> Operations.CreatePlanWorkout.Output
    {
        let (request, me) = try await Self.caller()
        guard case .json(let body) = input.body else { throw APIProblem.internalError }
        let plan = try Self.plan(input.path.id)
        let session = try await Self.planStore(request, me).requireOpen(body.sessionId, of: plan)
        let store = try Self.workoutStore(request, me)
        let model = try await store.create(
            session.workout, name: "\(plan.title): \(session.title)", category: plan.category.workoutCategory,
            planSession: (plan.id, session.id))
        return .created(.init(body: .json(try WorkoutMapping.workout(model, activeRun: nil, now: store.now))))
    }

    static func planStore(_ request: Request, _ me: AuthenticatedUser) throws -> PlanProgressStore {
        PlanProgressStore(
            database: request.db, companyID: try me.companyID, userID: try me.userID,
            now: request.application.formaClock.now)
    }

    /// The plan `id`: 404 for an id no plan has, 422 when its avoided regions leave a session impossible.
    static func plan(_ id: String) throws -> TrainingPlan {
        do {
            return try WorkoutEngine.shared().plans.plan(id: id)
        } catch let error as PlanBuildError {
            switch error {
            case .unknownPlan: throw APIProblem.notFound("no plan '\(id)'")
            default: throw APIProblem.validation([FieldIssue(field: "id", message: error.description)])
            }
        }
    }
}
