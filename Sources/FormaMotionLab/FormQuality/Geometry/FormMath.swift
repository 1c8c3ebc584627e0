import Foundation

/// Degree-based trigonometry shared by the form-quality code.
enum FormMath {
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let radians = degrees * .pi / 180
        return (sin(radians), cos(radians))
    }

    /// `atan2` in degrees, for the angles of planar projections.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        atan2(y, x) * 180 / .pi
    }
}
