import Foundation

/// A 3×3 rotation matrix, stored by rows, used to pose skeleton bones.
public struct SkeletonRotation: Sendable, Hashable {
    /// Row-major entries: `m[row][column]`.
    public var rows: (Vector3, Vector3, Vector3)

    public init(rows: (Vector3, Vector3, Vector3)) {
        self.rows = rows
    }

    public static let identity = SkeletonRotation(rows: (
        Vector3(x: 1, y: 0, z: 0), Vector3(x: 0, y: 1, z: 0), Vector3(x: 0, y: 0, z: 1)
    ))

    /// A right-handed rotation by `degrees` about the x axis.
    public static func aboutX(degrees: Double) -> SkeletonRotation {
        let (s, c) = sinCos(degrees: degrees)
        return SkeletonRotation(rows: (
            Vector3(x: 1, y: 0, z: 0), Vector3(x: 0, y: c, z: -s), Vector3(x: 0, y: s, z: c)
        ))
    }

    /// A right-handed rotation by `degrees` about the y axis.
    public static func aboutY(degrees: Double) -> SkeletonRotation {
        let (s, c) = sinCos(degrees: degrees)
        return SkeletonRotation(rows: (
            Vector3(x: c, y: 0, z: s), Vector3(x: 0, y: 1, z: 0), Vector3(x: -s, y: 0, z: c)
        ))
    }

    /// A right-handed rotation by `degrees` about the z axis.
    public static func aboutZ(degrees: Double) -> SkeletonRotation {
        let (s, c) = sinCos(degrees: degrees)
        return SkeletonRotation(rows: (
            Vector3(x: c, y: -s, z: 0), Vector3(x: s, y: c, z: 0), Vector3(x: 0, y: 0, z: 1)
        ))
    }

    /// The columns of the matrix, i.e. the images of the x, y and z unit vectors.
    public var columns: (Vector3, Vector3, Vector3) {
        (
            Vector3(x: rows.0.x, y: rows.1.x, z: rows.2.x),
            Vector3(x: rows.0.y, y: rows.1.y, z: rows.2.y),
            Vector3(x: rows.0.z, y: rows.1.z, z: rows.2.z)
        )
    }

    public static func * (lhs: SkeletonRotation, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.rows.0.dot(rhs), y: lhs.rows.1.dot(rhs), z: lhs.rows.2.dot(rhs))
    }

    public static func * (lhs: SkeletonRotation, rhs: SkeletonRotation) -> SkeletonRotation {
        let columns = rhs.columns
        func row(_ r: Vector3) -> Vector3 {
            Vector3(x: r.dot(columns.0), y: r.dot(columns.1), z: r.dot(columns.2))
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

    private static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let radians = degrees * .pi / 180
        return (sin(radians), cos(radians))
    }
}
