-- Tetris update(): spec ../shared/specs/falling-blocks.md Appendix A (lines 437–464), verbatim: the paper's listing [L1000–L1058] with its comments translated.
function update()
  -- variable holding the fall amount
  downnum = 0
  y = getFieldHeight()
  for p = 0 , getFieldHeight() do
    y = y - 1
    checknum = 0
    -- count how many blocks are in this row
    for x = 0 , getFieldWidth() do
      if getFieldBlock( x , y ) > 0 and getFieldBlock( x , y ) < 100 then
        checknum = checknum + 1
      end
    end
    -- if the row holds 10 or more blocks, clear it
    if checknum >= 10 then
      checknum = 10
      downnum = downnum + 1
      for x = 0 , getFieldWidth() do
        setBlockDeleteFlag( x , y )
      end
    else
      -- give a fall amount to blocks above the cleared rows
      for x = 0 , getFieldWidth() do
        setBlockDownCellNum( x , y , downnum )
      end
    end
  end
end
