package os
trait ResourceApi
