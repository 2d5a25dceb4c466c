// Tests of ZKPinClient live in this folder (replace this file).
