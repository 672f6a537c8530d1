public import CoreTypes
