package os
private[os] object acyclic {

  /** Mocks [[\\import acyclic.skipped]] for scala 3 */
  private[os] type skipped
}
