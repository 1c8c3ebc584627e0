"""Live sessions over /v1/live with websocket-client (docs/live-protocol.md): open one, and play a timed challenge
from a `forma synthesize` recording at the recording's own pace, as a camera would send it."""
import json
import struct
import time

import websocket

CLOSE = websocket.ABNF.OPCODE_CLOSE


def connect(base, token):
    """Opens a session; (socket, None) once it is ready, or (None, close code) when the server refused it."""
    socket = websocket.create_connection(base.replace("http://", "ws://") + "/v1/live",
                                         header=[f"Authorization: Bearer {token}"], timeout=20)
    opcode, frame = socket.recv_data_frame(True)
    if opcode == CLOSE:
        code = struct.unpack("!H", frame.data[:2])[0] if len(frame.data) >= 2 else None
        socket.close()
        return None, code
    message = json.loads(frame.data)
    assert message.get("type") == "ready", f"first message {message}"
    return socket, None


def pose_frame(t, landmarks):
    if landmarks is None:
        return struct.pack("<BBHd", 1, 0, 0, t)
    values = [float(v) for landmark in landmarks for v in landmark]
    return struct.pack("<BBHd", 1, 1, 33, t) + struct.pack(f"<{len(values)}f", *values)


def play_challenge(base, token, frames, seconds, exercise="squat"):
    """Plays a `seconds` challenge of `exercise` with `frames` (a recording's "frames") and returns the challenge
    events the server sent (one, when it counted the try).

    Frames leave at the recording's pace: each is due one frame interval after the previous one was due, or now if
    that has passed. After a stall (a busy machine) the frames do not catch up in a burst, which the server would
    rightly close as more than 60 frames a second; they carry their recorded times, so the challenge still ends
    by the recording's clock or by the server's, whichever comes first."""
    socket, code = connect(base, token)
    assert socket is not None, f"live session refused with {code}"
    outcome = []
    try:
        socket.send(json.dumps({"type": "start", "exercise": exercise, "challengeSeconds": seconds}))
        first = frames[0]["t"]
        due, previous = time.monotonic(), 0.0
        for frame in frames:
            t = frame["t"] - first
            if t > seconds + 1:
                break
            due = max(due + (t - previous), time.monotonic())
            previous = t
            time.sleep(max(0.0, due - time.monotonic()))
            socket.send_binary(pose_frame(t, frame.get("landmarks")))
        socket.send(json.dumps({"type": "end"}))
        while True:
            opcode, frame = socket.recv_data_frame(True)
            if opcode == CLOSE:
                break
            message = json.loads(frame.data)
            if message.get("type") == "challenge":
                outcome.append(message)
    finally:
        socket.close()
    return outcome
