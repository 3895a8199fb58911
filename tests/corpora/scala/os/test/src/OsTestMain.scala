package test.os

object OsTestMain {
  def main(args: Array[String]): Unit = {}
}
