-- Puyo Puyo update(): spec ../shared/specs/falling-blocks.md Appendix A (lines 416–432), verbatim: the paper's listing [L809–L850] with its comments translated.
function update()
  -- variable holding the fall amount
  downnum = 0
  y = getFieldHeight()
  for p = 0 , getFieldHeight() do
    y = y - 1
    -- vanish if 4 or more are stuck together
    for x = 0 , getFieldWidth() do
      -- always make it fall
      setBlockDownCellNum( x , y , getFieldHeight() )
      -- trigger the clear test when 4+ are connected AND no block is falling
      if getComboBlockNum( x , y ) >= 4 and getFieldBlock( x , y ) < 100 and getAllBlockDownFlag() == false then
        setBlockDeleteFlag( x , y ) -- make the block vanish
      end
    end
  end
end
