import Foundation

/// A point or direction in three-dimensional space.
///
/// The unit is whatever the producer says (UI-PRMD skeletons are in centimetres); the axes follow the sensor frame of
/// the data: x to the camera's right, y up, z towards the camera.
public struct SpatialVector: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = SpatialVector(x: 0, y: 0, z: 0)

    /// The Euclidean length.
    public var length: Double { (x * x + y * y + z * z).squareRoot() }

    /// This vector scaled to length 1, or `nil` when it is too short to have a direction.
    public var normalized: SpatialVector? {
        let length = self.length
        guard length > 1e-12, length.isFinite else { return nil }
        return self / length
    }

    /// Whether every coordinate is a finite number.
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    public func dot(_ other: SpatialVector) -> Double { x * other.x + y * other.y + z * other.z }

    public func cross(_ other: SpatialVector) -> SpatialVector {
        SpatialVector(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }

    /// The unsigned angle to `other` in degrees (0…180), or `nil` when either vector has no direction.
    ///
    /// Computed as `atan2(|a × b|, a · b)`, which stays accurate for nearly parallel vectors where `acos` loses
    /// half its digits.
    public func angleDegrees(to other: SpatialVector) -> Double? {
        guard let a = normalized, let b = other.normalized else { return nil }
        return FormMath.atan2Degrees(a.cross(b).length, a.dot(b))
    }

    public static func + (lhs: SpatialVector, rhs: SpatialVector) -> SpatialVector {
        SpatialVector(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    public static func - (lhs: SpatialVector, rhs: SpatialVector) -> SpatialVector {
        SpatialVector(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    public static prefix func - (vector: SpatialVector) -> SpatialVector {
        SpatialVector(x: -vector.x, y: -vector.y, z: -vector.z)
    }

    public static func * (vector: SpatialVector, scale: Double) -> SpatialVector {
        SpatialVector(x: vector.x * scale, y: vector.y * scale, z: vector.z * scale)
    }

    public static func / (vector: SpatialVector, scale: Double) -> SpatialVector {
        SpatialVector(x: vector.x / scale, y: vector.y / scale, z: vector.z / scale)
    }

    /// The midpoint of two points.
    public static func midpoint(_ a: SpatialVector, _ b: SpatialVector) -> SpatialVector { (a + b) * 0.5 }
}

/// A 3×3 rotation matrix, stored by rows, used to pose skeleton bones.
public struct SkeletonRotation: Sendable, Hashable {
    /// Row-major entries: `m[row][column]`.
    public var rows: (SpatialVector, SpatialVector, SpatialVector)

    public init(rows: (SpatialVector, SpatialVector, SpatialVector)) {
        self.rows = rows
    }

    public static let identity = SkeletonRotation(rows: (
        SpatialVector(x: 1, y: 0, z: 0), SpatialVector(x: 0, y: 1, z: 0), SpatialVector(x: 0, y: 0, z: 1)
    ))

    /// A right-handed rotation by `degrees` about the x axis.
    public static func aboutX(degrees: Double) -> SkeletonRotation {
        let (s, c) = FormMath.sinCos(degrees: degrees)
        return SkeletonRotation(rows: (
            SpatialVector(x: 1, y: 0, z: 0), SpatialVector(x: 0, y: c, z: -s), SpatialVector(x: 0, y: s, z: c)
        ))
    }

    /// A right-handed rotation by `degrees` about the y axis.
    public static func aboutY(degrees: Double) -> SkeletonRotation {
        let (s, c) = FormMath.sinCos(degrees: degrees)
        return SkeletonRotation(rows: (
            SpatialVector(x: c, y: 0, z: s), SpatialVector(x: 0, y: 1, z: 0), SpatialVector(x: -s, y: 0, z: c)
        ))
    }

    /// A right-handed rotation by `degrees` about the z axis.
    public static func aboutZ(degrees: Double) -> SkeletonRotation {
        let (s, c) = FormMath.sinCos(degrees: degrees)
        return SkeletonRotation(rows: (
            SpatialVector(x: c, y: -s, z: 0), SpatialVector(x: s, y: c, z: 0), SpatialVector(x: 0, y: 0, z: 1)
        ))
    }

    /// The columns of the matrix, i.e. the images of the x, y and z unit vectors.
    public var columns: (SpatialVector, SpatialVector, SpatialVector) {
        (
            SpatialVector(x: rows.0.x, y: rows.1.x, z: rows.2.x),
            SpatialVector(x: rows.0.y, y: rows.1.y, z: rows.2.y),
            SpatialVector(x: rows.0.z, y: rows.1.z, z: rows.2.z)
        )
    }

    public static func * (lhs: SkeletonRotation, rhs: SpatialVector) -> SpatialVector {
        SpatialVector(x: lhs.rows.0.dot(rhs), y: lhs.rows.1.dot(rhs), z: lhs.rows.2.dot(rhs))
    }

    public static func * (lhs: SkeletonRotation, rhs: SkeletonRotation) -> SkeletonRotation {
        let columns = rhs.columns
        func row(_ r: SpatialVector) -> SpatialVector {
            SpatialVector(x: r.dot(columns.0), y: r.dot(columns.1), z: r.dot(columns.2))
        }
        return SkeletonRotation(rows: (row(lhs.rows.0), row(lhs.rows.1), row(lhs.rows.2)))
    }

    public static func == (lhs: SkeletonRotation, rhs: SkeletonRotation) -> Bool {
        lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows.0)
        hasher.combine(rows.1)
        hasher.combine(rows.2)
    }
}

/// Degree-based trigonometry shared by the form-quality code.
enum FormMath {
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let radians = degrees * .pi / 180
        return (sin(radians), cos(radians))
    }

    /// `acos` in degrees, with the argument clamped to [-1, 1] so rounding never yields NaN.
    static func acosDegrees(_ cosine: Double) -> Double {
        acos(min(1, max(-1, cosine))) * 180 / .pi
    }

    /// `atan2` in degrees, for the angles of planar projections.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        atan2(y, x) * 180 / .pi
    }
}
