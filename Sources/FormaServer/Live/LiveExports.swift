// The live protocol's types (LiveLimits in the server's configuration, LiveClose, LiveEvent) are FormaLive's; the
// server and those who configure it use them as its own.
@_exported import FormaLive
