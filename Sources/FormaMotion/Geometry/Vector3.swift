import Foundation

/// A point or direction in three dimensions: the one vector type of the motion engine.
///
/// The unit and axes are the producer's, and every use names them: pose analysis works in image-height units with
/// `x` right, `y` down and `z` away from the camera; inertial samples are in g (acceleration) or degrees per second
/// (rotation) in the sensor's own frame; skeletons from Kinect data are in centimetres with `y` up.
public struct Vector3: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(x: 0, y: 0, z: 0)

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(x: -a.x, y: -a.y, z: -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(x: a.x * s, y: a.y * s, z: a.z * s) }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(x: a.x / s, y: a.y / s, z: a.z / s) }

    @inlinable public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    @inlinable
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }

    /// The Euclidean length, independent of how the frame is oriented.
    @inlinable public var length: Double { dot(self).squareRoot() }

    /// This vector scaled to length 1, or `nil` when it is too short to have a direction.
    @inlinable
    public var normalized: Vector3? {
        let length = self.length
        guard length > 1e-12, length.isFinite else { return nil }
        return self / length
    }

    /// Whether every coordinate is a finite number.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// The midpoint of two points.
    @inlinable public static func midpoint(_ a: Vector3, _ b: Vector3) -> Vector3 { (a + b) * 0.5 }
}

/// Angles between body segments, in degrees.
public enum JointGeometry {
    /// The angle at `vertex` between the segments to `first` and `last`, 0…180°, in 3-D.
    /// Returns `nil` when a segment has zero length.
    @inlinable
    public static func angle(_ first: Vector3, _ vertex: Vector3, _ last: Vector3) -> Double? {
        angle(between: first - vertex, and: last - vertex)
    }

    /// The angle between two directions, 0…180°, or `nil` when either has zero length: the engine's one angle
    /// function. Uses `atan2(|u × v|, u · v)`, which stays accurate near 0° and 180° where `acos` loses precision.
    @inlinable
    public static func angle(between u: Vector3, and v: Vector3) -> Double? {
        let sine = u.cross(v).length
        let cosine = u.dot(v)
        guard sine > 0 || cosine != 0 else { return nil }
        return atan2(sine, cosine) * (180 / Double.pi)
    }

    /// The angle at `vertex` in the image plane (ignoring depth), 0…180°, or `nil` for a zero-length segment.
    @inlinable
    public static func planarAngle(_ first: Vector3, _ vertex: Vector3, _ last: Vector3) -> Double? {
        let u = first - vertex
        let v = last - vertex
        return angle(between: Vector3(x: u.x, y: u.y, z: 0), and: Vector3(x: v.x, y: v.y, z: 0))
    }
}
