// Tests of ZKPinServer live in this folder (replace this file).
