<?xml version="1.0" encoding="UTF-8"?>
<!--
  Runs compiled Schematron rule sets on many documents in one XSLT 3.0 processor run (Saxon-HE 9.9 or
  later), and compiles a rule set with SchXslt (test/fixtures/einvoice/schxslt) first when its compiled
  stylesheet is not cached yet. Adapted from the e-invoice validation kit's lib/run-schematron.xsl.

  Parameter jobs: the URI of a job file written by einvoice-validation.ts:
    <jobs pipeline="URI of schxslt/2.0/pipeline-for-svrl.xsl">
      <rules name="en16931-ubl" compiled="URI of the cached compiled XSLT"/>             (cached)
      <rules name="hr" sch="URI of the .sch" out="URI to write the compiled XSLT to"/>   (to compile)
      <doc href="URI of a document" rules="en16931-ubl hr"/>
    </jobs>
  Output (JSON): an array with one object per document and rule set:
    {"doc": n (1-based, in job order), "rules": name, "findings": [[kind, id, flag, role, location, text], ...]}
    or, when the rule set could not run on that document, {"doc": n, "rules": name, "error": "code: message"}.
  A rule set that cannot be compiled gives {"rules": name, "compileError": "code: message"}.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:err="http://www.w3.org/2005/xqt-errors"
                xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
                exclude-result-prefixes="#all">

  <xsl:param name="jobs" as="xs:string" required="yes"/>
  <xsl:output method="json" indent="no"/>

  <xsl:variable name="job" select="doc($jobs)/jobs"/>

  <!-- SchXslt parameters: no fired-rule/active-pattern noise in the SVRL, no creation metadata. -->
  <xsl:variable name="compile-params" select="map{
      QName('', 'schxslt.svrl.compact'): true(),
      QName('', 'schxslt.compile.metadata'): false() }"/>

  <xsl:template name="xsl:initial-template">
    <!-- name => compiled stylesheet (a document node), or an error string -->
    <xsl:variable name="compiled" as="map(xs:string, item())">
      <xsl:map>
        <xsl:for-each select="$job/rules">
          <xsl:map-entry key="string(@name)">
            <xsl:choose>
              <xsl:when test="@compiled">
                <xsl:try>
                  <xsl:sequence select="doc(@compiled)"/>
                  <xsl:catch>
                    <xsl:sequence select="'the cached compiled rules could not be read: ' || string($err:code) || ': ' || $err:description"/>
                  </xsl:catch>
                </xsl:try>
              </xsl:when>
              <xsl:otherwise>
                <xsl:try>
                  <xsl:sequence select="transform(map{
                      'stylesheet-location': string($job/@pipeline),
                      'source-node': doc(@sch),
                      'stylesheet-params': $compile-params })?output"/>
                  <xsl:catch>
                    <xsl:sequence select="string($err:code) || ': ' || $err:description"/>
                  </xsl:catch>
                </xsl:try>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:map-entry>
        </xsl:for-each>
      </xsl:map>
    </xsl:variable>

    <!-- Write what was compiled now, for the cache. -->
    <xsl:for-each select="$job/rules[@out][$compiled(string(@name)) instance of document-node()]">
      <xsl:result-document href="{@out}" method="xml" indent="no">
        <xsl:sequence select="$compiled(string(current()/@name))"/>
      </xsl:result-document>
    </xsl:for-each>

    <xsl:variable name="results" as="map(*)*">
      <xsl:for-each select="$job/rules[$compiled(string(@name)) instance of xs:string]">
        <xsl:sequence select="map{ 'rules': string(@name), 'compileError': $compiled(string(@name)) }"/>
      </xsl:for-each>
      <xsl:for-each select="$job/doc">
        <xsl:variable name="n" select="position()"/>
        <xsl:variable name="href" select="string(@href)"/>
        <xsl:for-each select="tokenize(@rules)[$compiled(.) instance of document-node()]">
          <xsl:variable name="name" select="."/>
          <xsl:try>
            <xsl:variable name="svrl" select="transform(map{
                'stylesheet-node': $compiled($name),
                'source-node': doc($href),
                'cache': true() })?output"/>
            <xsl:sequence select="map{ 'doc': $n, 'rules': $name, 'findings': array{
                for $f in $svrl//(svrl:failed-assert | svrl:successful-report)
                return array{
                  if ($f/self::svrl:failed-assert) then 'assert' else 'report',
                  string($f/@id), string($f/@flag), string($f/@role), string($f/@location),
                  normalize-space(string-join($f/svrl:text, ' ')) } } }"/>
            <xsl:catch>
              <xsl:sequence select="map{ 'doc': $n, 'rules': $name,
                  'error': string($err:code) || ': ' || normalize-space($err:description) }"/>
            </xsl:catch>
          </xsl:try>
        </xsl:for-each>
      </xsl:for-each>
    </xsl:variable>
    <xsl:sequence select="array{ $results }"/>
  </xsl:template>

</xsl:stylesheet>
