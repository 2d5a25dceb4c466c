// Tests of ZKPinWire live in this folder (replace this file).
