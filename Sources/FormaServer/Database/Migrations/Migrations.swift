import Fluent

/// Every migration, in the order it runs. Append only: a migration that has landed is never edited or reordered,
/// because databases in the field have already recorded it by name.
func formaMigrations(configuration: ServerConfiguration) -> [any Migration] {
    [
        CreateCompanies(),
        CreateAPIKeys(),
        CreateUsers(),
        CreateUserTokens(),
        CreateAvatars(),
        CreateLoginAttempts(),
        CreateExercises(),
        SeedExerciseCatalogue(),
        CreateDefaultCompany(companyName: configuration.defaultCompanyName),
        CreateWorkouts(),
        CreateWorkoutRuns(),
        CreatePlanProgress(),
        CreateFitnessTests(),
        CreateLiveSetResults(),
        CreateChallengeScores(),
        DropCatalogueCopy(),
        CreateLoginBackoffs(),
        AddLiveSessionSource(),
        CreateLiveSessionLeases(),
        CreatePainReports(),
        CreateReminders(),
        CreateCompanyWebhooks(),
        CreateTrainerConversations(),
        AddWorkoutPain(),
        CreatePlanSessionPain(),
        CreateWorkoutThemes(),
        CreateGoals(),
        AddTrainerConversationWorkout(),
        AddWorkoutRunCheckIn(),
        CreatePointsLedger(),
    ]
}
