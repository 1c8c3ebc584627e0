/// The numbers of the pain-monitoring model, which every pain rule of Forma derives its thresholds from.
///
/// The model (Thomeé, Scand. J. Med. Sci. Sports 7(2), 1997; Silbernagel et al., Am. J. Sports Med. 35(6), 2007)
/// rates pain on the 0–10 numeric rating scale: 0–2 is "safe", up to 5 is "acceptable" during exercise, above 5 is
/// "high risk". The trainer's readiness rules (``ReadinessRules``), the rehab restrictions (``PainRules``), the rehab
/// progression (``RehabProgression``) and the ratings people give (``PainRating``, ``PainReport``) all read them
/// from here, so the two capabilities cannot drift apart.
public enum PainMonitoring {
    /// The numeric rating scale: 0 no pain, 10 the worst pain imaginable.
    public static let scale = 0...10
    /// The top of the model's safe zone.
    public static let safeCeiling = 2
    /// The top of the model's acceptable zone; pain above it is too much.
    public static let acceptableCeiling = 5
}
