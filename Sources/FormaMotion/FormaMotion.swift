// FormaMotion: signal analysis for repetition counting and form feedback, from pose landmarks and from inertial
// samples. Pure Swift, no IO; the same code runs on the server and on a phone through FormaKit.
