import Foundation

/// A point or direction in the analysis space: image height units, `x` right, `y` down, `z` away from the camera.
public struct Vector3: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(x: a.x * s, y: a.y * s, z: a.z * s) }

    @inlinable public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }
    @inlinable public var length: Double { dot(self).squareRoot() }
    @inlinable public var planarLength: Double { (x * x + y * y).squareRoot() }
}

/// Angles between body segments, in degrees.
public enum JointGeometry {
    /// The angle at `vertex` between the segments to `first` and `last`, 0…180°, in 3-D.
    /// Returns `nil` when a segment has zero length. Uses `atan2(|u × v|, u · v)`, which stays accurate near 0° and
    /// 180° where `acos` loses precision.
    @inlinable
    public static func angle(_ first: Vector3, _ vertex: Vector3, _ last: Vector3) -> Double? {
        angle(between: first - vertex, and: last - vertex)
    }

    /// The angle between two directions, 0…180°, or `nil` when either has zero length.
    @inlinable
    public static func angle(between u: Vector3, and v: Vector3) -> Double? {
        let crossX = u.y * v.z - u.z * v.y
        let crossY = u.z * v.x - u.x * v.z
        let crossZ = u.x * v.y - u.y * v.x
        let sine = (crossX * crossX + crossY * crossY + crossZ * crossZ).squareRoot()
        let cosine = u.dot(v)
        guard sine > 0 || cosine != 0 else { return nil }
        return atan2(sine, cosine) * (180 / Double.pi)
    }

    /// The angle at `vertex` in the image plane (ignoring depth), 0…180°, or `nil` for a zero-length segment.
    @inlinable
    public static func planarAngle(_ first: Vector3, _ vertex: Vector3, _ last: Vector3) -> Double? {
        let u = first - vertex
        let v = last - vertex
        let cross = u.x * v.y - u.y * v.x
        let cosine = u.x * v.x + u.y * v.y
        guard cross != 0 || cosine != 0 else { return nil }
        return atan2(abs(cross), cosine) * (180 / Double.pi)
    }
}
